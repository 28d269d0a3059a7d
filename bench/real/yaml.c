/* bench/real/yaml.c — libyaml's event parser over the input, to the end or the first error. */
#include "harness.h"

#include <yaml.h>

int bench_real_one(const uint8_t *data, size_t size)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return 0;
    yaml_parser_set_input_string(&p, data, size);
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev))
            break;
        int end = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
        if (end)
            break;
    }
    yaml_parser_delete(&p);
    return 0;
}
