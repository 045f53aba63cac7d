//go:build race

package sitetest

const raceDetector = true
