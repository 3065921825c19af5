// The layer between the executables and the libraries. A command's flags, once parsed, are a
// request value (a Harness job, a report's request, a pins query); each becomes one call: the
// libraries' own (`Harness.cluster`, `Harness.score`, `Check.run`, `PinsCall.call`) or, for
// the commands whose work spans the runner and the writers, the runs in this module. The
// modules requests are written in are re-exported: the command line imports this layer (through
// its option groups, CommandLineSupport) and the argument parser, nothing else of the package.

@_exported import ClusterCore
@_exported import ClusterMetrics
@_exported import Datasets
@_exported import Geo
@_exported import Harness
@_exported import ListingVocabulary
@_exported import Pins
@_exported import PinsQueries
@_exported import Reports
