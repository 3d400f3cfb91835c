// GNU readline (Debian's libreadline-dev), as a Swift module for the shell's
// line editor: history, Tab completion, the continuation prompt.
//
// Readline's settings are C globals, which Swift 6 refuses to touch from
// Swift code (shared mutable state); these accessors touch them instead.
// Only the REPL's thread calls them.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <readline/readline.h>
#include <readline/history.h>
#include <sys/ioctl.h>
#include <unistd.h>

static inline void quarry_rl_configure(rl_completion_func_t *complete, const char *wordBreaks) {
    rl_catch_signals = 0;
    rl_catch_sigwinch = 1;
    rl_readline_name = "quarry";
    rl_completer_word_break_characters = strdup(wordBreaks);
    rl_attempted_completion_function = complete;
}

/// Called from the completion function: no file-name fallback.
static inline void quarry_rl_completion_over(void) { rl_attempted_completion_over = 1; }

/// No space after a completion (a key path that continues with '.').
static inline void quarry_rl_no_append(void) { rl_completion_append_character = '\0'; }

/// The whole line being edited.
static inline const char *quarry_rl_line_buffer(void) { return rl_line_buffer; }

/// The size of the terminal on `fd` (ioctl is variadic, which Swift cannot
/// call): 0 when `fd` is not a terminal. For the pager and `.expanded auto`.
static inline int quarry_terminal_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (!isatty(fd) || ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return 0;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 1;
}
