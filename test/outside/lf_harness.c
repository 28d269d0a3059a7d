/* test/outside/lf_harness.c — a libFuzzer harness as third parties write them, built
 * outside the tree both against the installed fuzzgate (pkg-config fuzzgate-libfuzzer,
 * any compiler) and under real libFuzzer (clang -fsanitize=fuzzer). Nothing in it knows
 * about fuzzgate.
 *
 * A record reader with a planted bug: a record is "REC", a version byte, a length byte
 * and that many payload bytes. Version 7 records keep an extra trailer, and the copy
 * into the fixed buffer trusts the length: the assert is the bug report.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int record_read(const uint8_t *data, size_t size, uint8_t *out, size_t cap)
{
    if (size < 5 || memcmp(data, "REC", 3) != 0)
        return -1;
    uint8_t version = data[3], len = data[4];
    if (size - 5 < len)
        return -1;
    if (version == 7) {
        /* version 7: a checksummed payload and an 8-byte trailer after it */
        uint8_t sum = 0;
        for (size_t i = 0; i < len; i++)
            sum = (uint8_t)(sum + data[5 + i]);
        assert(len + 8u <= cap);
        memcpy(out, data + 5, len);
        memset(out + len, sum, 8);
        return len + 8;
    }
    if (len > cap)
        return -1;
    memcpy(out, data + 5, len);
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t buf[64];
    if (size > 0 && data[0] != 'R')
        return -1; /* not even the start of a record: not worth keeping */
    int n = record_read(data, size, buf, sizeof buf);
    return n > 0 && buf[0] == 0xff ? 0 : 0;
}
