// GNU readline (Debian's libreadline-dev), as a Swift module for the shell's
// line editor: history, Tab completion, the continuation prompt.
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
