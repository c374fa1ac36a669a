#include <yajl/yajl_parse.h>
#include <yajl/yajl_gen.h>
