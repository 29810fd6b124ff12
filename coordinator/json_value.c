/* json_value.c: counts and peer text as jansson values (see json_value.h). */
#include "json_value.h"

#include <time.h>

#include "count.h"
#include "log_line.h"

json_t *json_value_count(count_t n)
{
    char b[COUNT_TEXT_MAX];
    return n <= (count_t)INT64_MAX ? json_integer((json_int_t)n) : json_string(count_format(n, b));
}

json_t *json_value_text(const char *text)
{
    char clean[LOG_LINE_MAX];
    json_t *s = json_string(text); /* NULL when text is not UTF-8 */
    return s != NULL ? s : json_string(log_clean(text, clean, sizeof clean));
}

char *json_value_iso(int64_t unix_s, char out[32])
{
    time_t t = (time_t)unix_s;
    struct tm tm;
    out[0] = '\0';
    if (unix_s > 0 && gmtime_r(&t, &tm) != NULL)
        strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return out;
}

json_t *json_value_start(int64_t job_started_at, bool resumed, int64_t run_started_at)
{
    char started[32], resumed_at[32] = "";
    const char *source = !resumed ? "run" : job_started_at > 0 ? "journal" : "unknown";
    json_value_iso(job_started_at > 0 ? job_started_at : resumed ? 0 : run_started_at, started);
    if (resumed)
        json_value_iso(run_started_at, resumed_at);
    return json_pack("{s:s?, s:s, s:s?}", "started_at", started[0] ? started : NULL, "started_at_source", source,
                     "resumed_at", resumed_at[0] ? resumed_at : NULL);
}
