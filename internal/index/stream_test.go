package index_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"

	"github.com/postmortem-archive/gen/internal/archive"
	"github.com/postmortem-archive/gen/internal/index"
	"github.com/postmortem-archive/gen/internal/render"
	"github.com/postmortem-archive/gen/internal/sitetest"
	"github.com/postmortem-archive/gen/internal/source"
)

// The index a Stream writes from the render's trees is the index Write
// writes parsing every page itself; also when the render runs far ahead
// of the index and waits for it, and when the documents wait in a file
// until the render is done, in which case nothing is indexed before.
func TestStreamIndexesWhatWriteIndexes(t *testing.T) {
	site, err := source.Load(filepath.Join("..", ".."), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(t.TempDir(), "write")
	if err := index.Write(want, site.Archive, site.Bundle.Tags(), "/archive"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		window int
		spill  bool
	}{{1, false}, {256, false}, {1, true}, {256, true}} {
		restore := index.SetStreamWindow(c.window)
		got := filepath.Join(t.TempDir(), "stream")
		var spill *os.File
		if c.spill {
			if spill, err = os.CreateTemp(t.TempDir(), "documents"); err != nil {
				t.Fatal(err)
			}
			defer spill.Close()
		}
		stream := renderStreamed(t, site, got, spillOrNil(spill))
		// The index makes a language's folder at its first document,
		// which with a window of one the render waited for.
		_, err = os.Stat(filepath.Join(got, "en"))
		if indexed := err == nil; c.spill && indexed || !c.spill && c.window == 1 && !indexed {
			t.Errorf("window %d, documents in a file %v: indexed while the pages render %v", c.window, c.spill, indexed)
		}
		if err := stream.Close(); err != nil {
			t.Fatal(err)
		}
		if spill != nil {
			if info, err := spill.Stat(); err != nil || info.Size() == 0 {
				t.Errorf("the documents did not wait in the file (%v)", err)
			}
		}
		restore()
		if sitetest.SameFiles(t, want, got) == 0 {
			t.Fatal("no index files compared")
		}
	}
}

// A document that cannot wait in the file, or be read back from it,
// fails the index, saying so.
func TestStreamSpillFailing(t *testing.T) {
	site, err := source.Load(filepath.Join("..", ".."), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spill *memFile
		want  string
	}{
		{&memFile{writeErr: errors.New("no space left on device")}, "no space left on device"},
		{&memFile{truncated: true}, "reading document "},
	} {
		stream := renderStreamed(t, site, filepath.Join(t.TempDir(), "index"), c.spill)
		if err := stream.Close(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Close: %v, want %q", err, c.want)
		}
	}
}

// memFile is a file in memory whose writes fail with writeErr, if set,
// and that reads back only the first half of what was written if
// truncated.
type memFile struct {
	data      []byte
	off       int
	writeErr  error
	truncated bool
}

func (f *memFile) Write(p []byte) (int, error) {
	if f.writeErr != nil {
		return 0, f.writeErr
	}
	f.data = append(f.data, p...)
	return len(p), nil
}

func (f *memFile) Seek(off int64, whence int) (int64, error) {
	if off != 0 || whence != io.SeekStart {
		return 0, errors.New("memFile: only rewinds")
	}
	f.off = 0
	return 0, nil
}

func (f *memFile) Read(p []byte) (int, error) {
	data := f.data
	if f.truncated {
		data = data[:len(data)/2]
	}
	if f.off >= len(data) {
		return 0, io.EOF
	}
	n := copy(p, data[f.off:])
	f.off += n
	return n, nil
}

// renderStreamed renders site with a Stream indexing it into dir,
// documents waiting in spill if not nil, and returns the stream
// unclosed.
func renderStreamed(t *testing.T, site *source.Site, dir string, spill io.ReadWriteSeeker) *index.Stream {
	t.Helper()
	layouts, err := render.ParseLayouts(site.Layouts)
	if err != nil {
		t.Fatal(err)
	}
	var stream *index.Stream
	r, err := render.New(site.Archive, site.Bundle, layouts, render.Options{
		BaseURL: "https://example.org/archive/",
		Parsed: func(inc *archive.Incident, lang string, doc ast.Node, src []byte, err error) {
			stream.Parsed(inc, lang, doc, src, err)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if stream, err = index.NewStream(dir, site.Archive, site.Bundle.Tags(), r.BasePath(), spill); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Render(func(string, []byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	return stream
}

// spillOrNil is f as an io.ReadWriteSeeker, nil when f is: a nil
// *os.File in the interface would not be nil.
func spillOrNil(f *os.File) io.ReadWriteSeeker {
	if f == nil {
		return nil
	}
	return f
}

// TestStreamFinishesEachLanguage: the stream tells the index a language
// is finished at the last document of it, with languages of incidents
// not written in all of them (the bundled archive's).
func TestStreamFinishesEachLanguage(t *testing.T) {
	site, err := source.Load(filepath.Join("..", ".."), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	langs := site.Bundle.Tags()
	s, err := index.NewStream(filepath.Join(t.TempDir(), "index"), site.Archive, langs, "/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var want []bool
	for _, lang := range langs {
		n := 0
		for _, inc := range site.Archive.Incidents {
			if _, ok := inc.Versions[lang]; ok {
				want = append(want, false)
				n++
			}
		}
		if n > 0 {
			want[len(want)-1] = true
		}
	}
	if len(want) == len(site.Archive.Incidents)*len(langs) {
		t.Fatal("every incident is in every language: the archive is not what the test needs")
	}
	for n, last := range want {
		if s.LastOf(n) != last {
			t.Errorf("document %d: last of its language %v, want %v", n, s.LastOf(n), last)
		}
	}
}
