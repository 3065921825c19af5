// zlib, for reading gzip-compressed input (Datasets' InputFile).
#include <zlib.h>
