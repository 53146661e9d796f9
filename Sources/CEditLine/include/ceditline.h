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
 * better); `path` is then as it was. */
int cel_history_save_whole(History *history, const char *path, const char *temporary);

#endif
