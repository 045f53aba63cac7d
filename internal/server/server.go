// Package server serves a built site over HTTP: from a folder when
// deployed, or from an in-memory build while authoring, with live reload
// and build errors shown in the page.
//
// The pieces:
//
//   - [Snapshotter] is the set of files being served: [NewDirSite] for a folder on
//     disk (`gen serve --dir public`), [NewMemSite] for a build kept in
//     memory and swapped whole after every rebuild.
//   - [NewHandler] serves a Site: content types, validators, conditional
//     and range requests, gzip, cache and security headers, the site's own
//     404 page, and, in [Options.LiveReload] mode, the reload script, its
//     event stream and the build-error overlay.
//   - [Listen] and [Serve] run the HTTP server with bounded header and body
//     sizes, timeouts, and a graceful shutdown that also ends the live
//     reload streams.
package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// Handler serves the built site in dir, as deployed: no live reload.
func Handler(dir string) http.Handler {
	return NewHandler(NewDirSite(dir), Options{})
}

// Listen binds addr, with an error that says which flag changes the port
// when it is taken.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("port %s is already in use; choose another with --port", portOf(addr))
		}
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return ln, nil
}

func portOf(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return port
}

// limits bounds what one client can make the server hold.
type limits struct {
	readHeader time.Duration // to read a request's headers: a slow client is cut off
	read       time.Duration // to read a whole request, body included
	write      time.Duration // to write a response (event streams extend their own)
	idle       time.Duration // a kept-alive connection waiting for its next request
	maxHeader  int           // bytes of request headers
	grace      time.Duration // for requests in flight at shutdown, before connections are closed
}

var defaultLimits = limits{
	readHeader: 5 * time.Second,
	read:       15 * time.Second,
	write:      30 * time.Second,
	idle:       60 * time.Second,
	maxHeader:  32 << 10,
	grace:      5 * time.Second,
}

// Serve serves h on ln until ctx is done, then shuts down gracefully:
// it stops accepting, ends live reload streams, lets requests in flight
// finish for a few seconds and then closes what is left. It returns nil
// after a shutdown, or the error that stopped the server.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	return serve(ctx, ln, h, defaultLimits)
}

type shutdownKey struct{}

// shuttingDown returns the channel closed when the server serving ctx's
// request begins to shut down, or nil when the server is not ours.
func shuttingDown(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(shutdownKey{}).(chan struct{})
	return ch
}

func serve(ctx context.Context, ln net.Listener, h http.Handler, l limits) error {
	down := make(chan struct{})
	var once sync.Once
	closeDown := func() { once.Do(func() { close(down) }) }
	base := context.WithValue(context.Background(), shutdownKey{}, down)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.readHeader,
		ReadTimeout:       l.read,
		WriteTimeout:      l.write,
		IdleTimeout:       l.idle,
		MaxHeaderBytes:    l.maxHeader,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	srv.RegisterOnShutdown(closeDown)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		closeDown()
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), l.grace)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil {
			// Requests still running after the grace period: cut them off.
			_ = srv.Close()
		}
		<-errc // http.ErrServerClosed
		return nil
	}
}
