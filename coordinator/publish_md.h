/* publish_md.h: a --report document (publish.h) rendered as Markdown for people. */
#pragma once

#include <jansson.h>
#include <stdio.h>

/* Writes doc as Markdown to out: a title from its "report" and "kind", then a section for
 * each object or list in it (publish_md.c says how). 0, or -1 on a write error. */
int publish_md(const json_t *doc, FILE *out);
