//go:build !race

package sitetest

const raceDetector = false
