#include "spoiler_syntax.h"

/* Placeholder until the extension lands (issue: Markdown through libcmark-gfm). */
cmark_syntax_extension *spoiler_syntax_create(void) {
    return cmark_syntax_extension_new("spoiler");
}
