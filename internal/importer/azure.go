package importer

import "github.com/postmortem-archive/gen/internal/diag"

// AzureStatus reads the RSS feed of Azure's status history.
var AzureStatus = Format{
	Name:     "azure-status",
	Where:    "https://azure.status.microsoft/en-us/status/history/feed/",
	readFeed: readAzureStatus,
}

func readAzureStatus(src *source, f *feed, errs *diag.List) []Incident { return nil }
