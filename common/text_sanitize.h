/*
 * Guest text made safe for its two readers: JSON records (RFC 8259 needs
 * valid UTF-8) and the user's terminal (no raw escape sequences).
 */
#ifndef EL_TEXT_SANITIZE_H
#define EL_TEXT_SANITIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copies len bytes into a malloc'd, NUL-terminated string of valid UTF-8:
 * \n, \t and \r stay; every other C0 control byte and DEL becomes its Unicode
 * control picture (NUL -> U+2400, ESC -> U+241B, DEL -> U+2421); every byte
 * sequence that is not well-formed UTF-8 (overlong, surrogate, above
 * U+10FFFF, truncated, stray continuation) becomes U+FFFD, one per maximal
 * ill-formed subpart.  *replaced (if not NULL) counts the substitutions.
 * The result is at most 3 * len + 1 bytes; NULL when out of memory.
 */
char *text_sanitize_utf8(const char *s, size_t len, size_t *out_len, uint64_t *replaced);

/*
 * Terminal form of len bytes into out (outcap bytes, always NUL-terminated
 * when outcap > 0): printable ASCII, \n and \t stay, well-formed UTF-8
 * stays except the C1 controls U+0080..U+009F; every other byte is written as \xHH so no ESC or
 * other control reaches the terminal.  Returns the length written; stops
 * early (never splitting an escape) when out is full.
 */
size_t text_escape_terminal(const char *s, size_t len, char *out, size_t outcap);

#endif
