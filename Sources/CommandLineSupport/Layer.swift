// The executables see the libraries through the request layer only: its runs, and the modules
// requests are written in, which it re-exports.
@_exported import Requests
