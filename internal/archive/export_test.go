package archive

// Relink is relink, for the tests that check a change is followed
// rather than linked again from scratch.
var Relink = relink
