/* examples/cmake/test_b64.c — the library's ordinary unit test: the known answers of RFC 4648,
 * section 10. A plain CTest test (no fuzz label), so `ctest -LE fuzz` runs it alone. */
#include "b64.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    static const char *const cases[][2] = {
        {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
    };
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *plain = cases[i][0], *coded = cases[i][1];
        char text[16];
        uint8_t back[16];
        size_t n = b64_encode((const uint8_t *)plain, strlen(plain), text);
        long d = b64_decode(coded, strlen(coded), back, sizeof back);
        if (n != strlen(coded) || strcmp(text, coded) != 0 || d != (long)strlen(plain) ||
            memcmp(back, plain, strlen(plain)) != 0) {
            printf("b64 \"%s\": encoded \"%s\", decoded %ld bytes (want \"%s\")\n", plain, text,
                   d, coded);
            failed++;
        }
    }
    static const char *const bad[] = {"Zg=", "Zh==", "Z===", "Zg=a", "Zm9v=Yg=", "Zm.v"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t back[16];
        if (b64_decode(bad[i], strlen(bad[i]), back, sizeof back) != -1) {
            printf("b64: \"%s\" was accepted\n", bad[i]);
            failed++;
        }
    }
    printf("b64 unit test: %d failed\n", failed);
    return failed != 0;
}
