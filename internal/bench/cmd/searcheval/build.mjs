// node build.mjs SITE OUT: indexes the HTML under SITE with Pagefind's Node
// API and writes the bundle into OUT.
import * as pagefind from "pagefind";

const [site, out] = process.argv.slice(2);
const { index, errors } = await pagefind.createIndex({});
if (errors.length) throw new Error(errors.join("\n"));
const added = await index.addDirectory({ path: site });
if (added.errors.length) throw new Error(added.errors.join("\n"));
const written = await index.writeFiles({ outputPath: out });
if (written.errors.length) throw new Error(written.errors.join("\n"));
console.log(JSON.stringify({ pages: added.page_count }));
await pagefind.close();
