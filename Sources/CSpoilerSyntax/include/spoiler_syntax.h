#ifndef SPOILER_SYNTAX_H
#define SPOILER_SYNTAX_H

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>

/// Creates the `||spoiler||` inline syntax extension for cmark-gfm.
/// Attach it to a parser with cmark_parser_attach_syntax_extension.
cmark_syntax_extension *spoiler_syntax_create(void);

#endif
