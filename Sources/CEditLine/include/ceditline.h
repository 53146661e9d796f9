/* A small, non-variadic face of libedit for Swift: el_set and history are variadic and
 * cannot be called from Swift, and the input loop (poll stdin, run an idle hook between
 * polls, notice Ctrl-C) is simplest in C. */
#ifndef CEDITLINE_H
#define CEDITLINE_H

#include <histedit.h>

/* A line editor on stdin/stdout with emacs keys, ~/.editrc read, our input loop, and a
 * prompt set with cel_set_prompt. */
EditLine *cel_open(const char *program);
void cel_close(EditLine *editor);

/* Keys are read from a descriptor of the editor's own, opened anew on the terminal
 * `descriptor` is (O_NONBLOCK, so stdin's flags, shared with the parent shell, stay as
 * they are). A read there never waits: when Ctrl-C flushes the terminal's input between
 * poll saying "ready" and the read, the read finds nothing and the editor goes back to
 * noticing the interrupt, where a blocking read would wait for the next key. Returns
 * `descriptor` itself when it is not a terminal (nothing flushes a pipe or a file) or
 * cannot be opened again; cel_open does this for stdin. */
int cel_open_keyboard(int descriptor);

/* The value cel_read_byte gives when no byte is there now (or a signal came). */
#define CEL_NO_KEY (-2)

/* Reads one byte: 1 with it, CEL_NO_KEY when none is there now, 0 at end of input or on
 * an error. */
int cel_read_byte(int descriptor, char *byte);

/* The prompt shown before the next line (copied). */
void cel_set_prompt(const char *prompt);

/* Called about every 20 ms while waiting for a key; it may print (above the prompt)
 * and then call cel_redisplay. */
void cel_set_idle(void (*idle)(EditLine *editor));

/* Redraws the prompt and the line being edited. */
void cel_redisplay(EditLine *editor);

/* The next line, or NULL at end of input or on Ctrl-C (see cel_take_interrupt). */
const char *cel_gets(EditLine *editor, int *count);

/* True (once) when Ctrl-C was pressed since the last call: it interrupted cel_gets, or
 * whatever the shell was running. */
int cel_take_interrupt(void);

/* From now on Ctrl-C sets the flag cel_take_interrupt reads instead of ending the
 * program (storesh does this when it will show a prompt). */
void cel_catch_interrupts(void);

/* Binds Tab to complete(editor), which returns a CC_* code. */
void cel_set_completer(EditLine *editor, unsigned char (*complete)(EditLine *editor, int key));

/* History kept in memory, shared with the editor (up/down, ^R). */
History *cel_history_open(int size);
void cel_history_close(History *history);
void cel_history_attach(EditLine *editor, History *history);
int cel_history_enter(History *history, const char *line);
int cel_history_load(History *history, const char *path);

/* Saves the history to `path` whole or not at all: libedit writes it to a temporary file
 * beside `path` (`temporary`), which is read back and compared (libedit ignores its own
 * write errors, so a full disk would leave a cut file and say nothing), synced, and
 * renamed over `path`. Returns the number of entries saved, or -1 with errno set (ENOSPC
 * when the file read back holds fewer entries than were saved and the write said nothing
 * better), or -2 when `path` is no longer a regular file (nothing is renamed over a
 * device, a FIFO or a directory); `path` is then as it was. */
int cel_history_save_whole(History *history, const char *path, const char *temporary);

#endif
