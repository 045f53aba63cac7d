package search

import "github.com/postmortem-archive/gen/search/schema"

// The fields of the index (package schema), by the short names the
// query code uses.
const (
	fTitle       = schema.Title
	fSummary     = schema.Summary
	fBody        = schema.Body
	fTimeline    = schema.Timeline
	fImpact      = schema.Impact
	fRootCause   = schema.RootCause
	fProduct     = schema.Product
	fRegion      = schema.Region
	fCause       = schema.Cause
	fOrg         = schema.Organization
	fSev         = schema.Severity
	fProductText = schema.ProductText
	fRegionText  = schema.RegionText
	fCauseText   = schema.CauseText
	fOrgText     = schema.OrganizationText
	fSevText     = schema.SeverityText
	fYear        = schema.Year
	textSuffix   = schema.TextSuffix
	kwAnalyzer   = schema.KeywordAnalyzer
)

// The fields without term vectors whose phrases are checked on their text
// (phrase.go) are numbered: the long fields, whose text is in the
// document store, then these, whose text is in the metadata.
const (
	titleField = len(schema.LongFields) + iota
	productField
	regionField
	causeField
	orgField
	sevField
	numCheckedFields
)

// checkedField returns the number of a field whose phrases are checked:
// every text field.
func checkedField(name string) int {
	switch name {
	case fTitle:
		return titleField
	case fProductText:
		return productField
	case fRegionText:
		return regionField
	case fCauseText:
		return causeField
	case fOrgText:
		return orgField
	case fSevText:
		return sevField
	}
	return schema.LongField(name)
}
