/* test/outside/real/yaml_parse.c — a libFuzzer harness over the system libyaml (for run.sh:
 * the six real libraries under fuzzgate's libFuzzer driver). */
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p))
        return 0;
    yaml_parser_set_input_string(&p, data, size);
    for (int i = 0; i < 10000; i++) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e))
            break;
        int end = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
        if (end)
            break;
    }
    yaml_parser_delete(&p);
    return 0;
}
