package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// An authoring server answers only the names it is reached by on this
// machine and those it is given, with any port; a page of another site
// reaching it through DNS rebinding names that site and is refused,
// live reload stream included. Without Hosts every name is answered.
func TestHostsRefusedUnlessAllowed(t *testing.T) {
	m := NewMemSite()
	m.Swap(map[string][]byte{"index.html": []byte("<p>home</p>")}, nil)
	live := startServer(t, NewHandler(m, Options{LiveReload: true, Hosts: AuthoringHosts("0.0.0.0", "192.0.2.7", "Docs.Test")}))
	for host, want := range map[string]int{
		"localhost":        http.StatusOK,
		"localhost:1313":   http.StatusOK,
		"LOCALHOST.:1313":  http.StatusOK,
		"127.0.0.1:1313":   http.StatusOK,
		"[::1]:1313":       http.StatusOK,
		"192.0.2.7:1313":   http.StatusOK,
		"docs.test":        http.StatusOK,
		"docs.test:8080":   http.StatusOK,
		"evil.example":     http.StatusForbidden,
		"evil.example:80":  http.StatusForbidden,
		"0.0.0.0:1313":     http.StatusForbidden,
		"127.0.0.1.evil":   http.StatusForbidden,
		"localhost.evil:1": http.StatusForbidden,
	} {
		for _, path := range []string{"/", "/_gen/livereload.js"} {
			resp, body := get(t, live+path, "Host: "+host)
			if resp.StatusCode != want {
				t.Errorf("Host %s, GET %s: %s, want %d", host, path, resp.Status, want)
			}
			if want == http.StatusForbidden && !bytes.Contains(body, []byte("--allowed-host")) {
				t.Errorf("Host %s: the refusal does not say how to allow it: %q", host, body)
			}
		}
	}
	// HTTP/1.0 needs no Host header: such a request names no host.
	conn, err := net.Dial("tcp", strings.TrimPrefix(live, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET / HTTP/1.0\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusForbidden || !bytes.Contains(body, []byte("no Host header")) {
		t.Errorf("HTTP/1.0 without Host: %s %q", resp.Status, body)
	}
	served := startServer(t, NewHandler(m, Options{}))
	if resp, _ := get(t, served+"/", "Host: evil.example"); resp.StatusCode != http.StatusOK {
		t.Errorf("without Hosts, Host evil.example: %s, want 200", resp.Status)
	}
}
