// libdeflate, for gzipping the server's answers (PinsServer's Gzip).
#include <libdeflate.h>
