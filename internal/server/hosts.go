package server

import (
	"net"
	"net/http"
	"strings"
)

// AuthoringHosts are the names an authoring server answers to: the
// loopback names, and each of names that is not an unspecified address
// (a server bound to 0.0.0.0 or :: is reached by names it cannot know,
// which must be given). A name may carry a port, which is ignored.
func AuthoringHosts(names ...string) []string {
	out := []string{"localhost", "127.0.0.1", "::1"}
	for _, n := range names {
		n = hostName(n)
		if ip := net.ParseIP(n); n == "" || ip != nil && ip.IsUnspecified() {
			continue
		}
		out = append(out, n)
	}
	return out
}

// hostName is the name of a Host header or address, without its port
// or the brackets of an IPv6 address, in lower case, as compared.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimPrefix(strings.TrimSuffix(host, "]"), "[")
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// hostAllowed answers 403 and reports false for a request to a host the
// handler does not answer to. A page on another site can make a browser
// reach a server on the loopback under its own name (DNS rebinding) and
// read its answers: the Host header still names that site.
func (h *handler) hostAllowed(w http.ResponseWriter, r *http.Request) bool {
	name := hostName(r.Host)
	if h.hosts == nil || h.hosts[name] {
		return true
	}
	msg := "this server answers only localhost, 127.0.0.1, [::1] and its --bind address; "
	if name == "" {
		msg += "this request names no host (no Host header)"
	} else {
		msg += "to open it as " + name + ", start it with --allowed-host " + name
	}
	http.Error(w, msg, http.StatusForbidden)
	return false
}
