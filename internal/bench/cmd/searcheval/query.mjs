// node query.mjs BUNDLE: answers queries with a Pagefind bundle's own
// search script, as a page of the site would. Reads one JSON query a line
// on stdin ({"lang", "term", "filters", "k"}) and writes one JSON line for
// each: {"urls": the first k results' URLs, "total", "ms"}. "filters" maps
// a filter name to a value typed by the reader.
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import path from "node:path";

const bundle = path.resolve(process.argv[2]);

// The script fetches its index files by URL; here they are files.
globalThis.fetch = async (url) => {
  try {
    return new Response(await readFile(String(url).split("?")[0]));
  } catch {
    return new Response(null, { status: 404 });
  }
};
// The script picks the language index from the page's <html lang>.
let lang = "unknown";
globalThis.document = { currentScript: null, querySelector: () => ({ getAttribute: () => lang }) };

const mod = await import(pathToFileURL(path.join(bundle, "pagefind.js")).href);
const instances = new Map();
async function instance(l) {
  if (!instances.has(l)) {
    lang = l;
    const pf = mod.createInstance({ basePath: bundle + "/", baseUrl: "/" });
    await pf.init();
    instances.set(l, { pf, filters: await pf.filters() });
  }
  return instances.get(l);
}

// A typed value selects the filter values that contain it as whole words,
// ignoring case, as gen's product:, region: and cause: do.
function resolveFilters(known, typed) {
  const out = {};
  for (const [name, value] of Object.entries(typed ?? {})) {
    const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const word = new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "iu");
    out[name] = { any: Object.keys(known[name] ?? {}).filter((k) => word.test(k)) };
  }
  return out;
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const q = JSON.parse(line);
  const { pf, filters } = await instance(q.lang.toLowerCase());
  const t0 = performance.now();
  const r = await pf.search(q.term || null, { filters: resolveFilters(filters, q.filters) });
  const results = r?.results ?? [];
  const top = await Promise.all(results.slice(0, q.k ?? 10).map((x) => x.data()));
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ urls: top.map((d) => d.url), total: results.length, ms }) + "\n");
}
