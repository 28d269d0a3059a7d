/* engine/supervise/wire.c — writing a message, and the finding message's codec (wire.h).
 *
 * The decoder reads what a dying or damaged executor may have half-written, so it trusts
 * no length: each is checked against the bytes left before it is used (no sum that could
 * wrap), and the body must end exactly where the lengths say.
 */
#include "engine/supervise/wire.h"

#include "engine/base/safeio.h"

#include <stddef.h>
#include <string.h>

int fgi_wire_send(int fd, uint32_t type, const void *body, size_t len)
{
    fgi_wire_head h = {type, (uint32_t)len};
    char small[sizeof h + sizeof(fgi_dying)];
    if (len <= sizeof small - sizeof h) { /* one write: a dying message stays whole */
        memcpy(small, &h, sizeof h);
        if (len)
            memcpy(small + sizeof h, body, len);
        return fgi_write_all(fd, small, sizeof h + len);
    }
    if (fgi_write_all(fd, (const char *)&h, sizeof h) != 0)
        return -1;
    return fgi_write_all(fd, body, len);
}

const char *fgi_wire_kind(const char *k, size_t n)
{
    static const char *const kinds[] = {"check", "crash", "write", "exit", "amplification",
                                        "retention", "timeout", "oom"};
    for (size_t i = 0; i < FGI_ARRAY_LEN(kinds); i++)
        if (strlen(kinds[i]) == n && memcmp(kinds[i], k, n) == 0)
            return kinds[i];
    return "crash";
}

int fgi_wire_encode_find(const fgi_wire_find *f, fgi_str *out)
{
    fgi_find_head h = {.seq = f->seq, .case_index = f->case_index, .size = f->size,
                       .napplied = f->napplied};
    FG_ASSERT(f->napplied <= FGI_MUT_STACK);
    if (f->napplied)
        memcpy(h.applied, f->applied, f->napplied);
    h.kindlen = (uint32_t)strlen(f->kind);
    h.sitelen = (uint32_t)strlen(f->site);
    h.detaillen = (uint32_t)strlen(f->detail);
    FG_ASSERT(h.sitelen < FGI_WIRE_SITE_MAX && h.detaillen < FGI_WIRE_DETAIL_MAX);
    fgi_str_addn(out, (const char *)&h, sizeof h);
    if (f->size)
        fgi_str_addn(out, (const char *)f->data, f->size);
    fgi_str_addn(out, f->kind, h.kindlen);
    fgi_str_addn(out, f->site, h.sitelen);
    fgi_str_addn(out, f->detail, h.detaillen);
    return out->failed ? -1 : 0;
}

int fgi_wire_decode_find(const uint8_t *p, size_t n, fgi_wire_find *f, char text[FGI_WIRE_TEXT])
{
    fgi_find_head h;
    if (n < sizeof h)
        return -1;
    memcpy(&h, p, sizeof h);
    size_t left = n - sizeof h;
    if (h.napplied > FGI_MUT_STACK || h.sitelen >= FGI_WIRE_SITE_MAX ||
        h.detaillen >= FGI_WIRE_DETAIL_MAX || h.size > left)
        return -1;
    left -= (size_t)h.size;
    if ((uint64_t)h.kindlen + h.sitelen + h.detaillen != left)
        return -1;
    const uint8_t *data = p + sizeof h;
    const char *kind = (const char *)data + h.size, *site = kind + h.kindlen;
    char *site_out = text, *detail_out = text + FGI_WIRE_SITE_MAX;
    memcpy(site_out, site, h.sitelen);
    site_out[h.sitelen] = '\0';
    memcpy(detail_out, site + h.sitelen, h.detaillen);
    detail_out[h.detaillen] = '\0';
    *f = (fgi_wire_find){
        .seq = h.seq,
        .case_index = h.case_index,
        .data = data,
        .size = (size_t)h.size,
        .applied = p + offsetof(fgi_find_head, applied),
        .napplied = h.napplied,
        .kind = fgi_wire_kind(kind, h.kindlen),
        .site = site_out,
        .detail = detail_out,
    };
    return 0;
}
