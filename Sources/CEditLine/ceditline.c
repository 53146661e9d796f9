#include "ceditline.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

static char *prompt_text;
static void (*idle_hook)(EditLine *);
/* Set by the SIGINT handler, read and cleared by the reader thread: an atomic, so the
 * two never race (lock-free atomics are async-signal-safe). */
static atomic_int interrupted;

static char *prompt(EditLine *editor) {
    (void)editor;
    return prompt_text ? prompt_text : "";
}

static void on_sigint(int signal) {
    (void)signal;
    atomic_store(&interrupted, 1);
}

/* libedit reads and writes characters through the C library's locale: in the "C" locale
 * every byte past ASCII is lost or mangled. storesh speaks UTF-8, so take the user's
 * locale when it is UTF-8 and C.UTF-8 otherwise. */
static void use_utf8_locale(void) {
    setlocale(LC_CTYPE, "");
    const char *codeset = nl_langinfo(CODESET);
    if (codeset && strcmp(codeset, "UTF-8") == 0) return;
    if (!setlocale(LC_CTYPE, "C.UTF-8")) setlocale(LC_CTYPE, "en_US.UTF-8");
}

/* The descriptor keys are read from: a non-blocking open of our own of the terminal on
 * stdin (see cel_open_keyboard), or stdin itself. */
static int keyboard = STDIN_FILENO;

int cel_open_keyboard(int descriptor) {
    if (!isatty(descriptor)) return descriptor;
    char path[48];
    snprintf(path, sizeof path, "/proc/self/fd/%d", descriptor);
    int own = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (own < 0) {
        const char *name = ttyname(descriptor);
        if (name) own = open(name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    }
    return own < 0 ? descriptor : own;
}

int cel_read_byte(int descriptor, char *byte) {
    ssize_t got = read(descriptor, byte, 1);
    if (got == 1) return 1;
    if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) return CEL_NO_KEY;
    return 0;
}

/* Reads one character, polling the keyboard so the idle hook runs while the user thinks.
 * Returns 1 with a character, 0 at end of input, -1 when interrupted. */
static int read_character(EditLine *editor, wchar_t *out) {
    mbstate_t state;
    memset(&state, 0, sizeof state);
    for (;;) {
        if (atomic_load(&interrupted)) return -1;
        struct pollfd input = { .fd = keyboard, .events = POLLIN };
        int ready = poll(&input, 1, 20);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        if (ready == 0) {
            if (idle_hook) idle_hook(editor);
            continue;
        }
        char byte;
        int got = cel_read_byte(keyboard, &byte);
        if (got == CEL_NO_KEY) continue;           /* gone since poll: Ctrl-C flushed it */
        if (got == 0) return 0;
        wchar_t character;
        size_t used = mbrtowc(&character, &byte, 1, &state);
        if (used == (size_t)-2) continue;          /* the middle of a UTF-8 sequence */
        if (used == (size_t)-1) {                   /* not UTF-8: take the byte as is */
            memset(&state, 0, sizeof state);
            character = (unsigned char)byte;
        }
        *out = character;
        return 1;
    }
}

EditLine *cel_open(const char *program) {
    use_utf8_locale();
    EditLine *editor = el_init(program, stdin, stdout, stderr);
    if (!editor) return NULL;
    el_set(editor, EL_EDITOR, "emacs");
    el_set(editor, EL_PROMPT, prompt);
    el_set(editor, EL_SIGNAL, 0);
    keyboard = cel_open_keyboard(STDIN_FILENO);
    el_set(editor, EL_GETCFN, read_character);
    el_source(editor, NULL); /* ~/.editrc: "bind -v" there switches to vi keys */
    cel_catch_interrupts();
    return editor;
}

void cel_catch_interrupts(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigaction(SIGINT, &action, NULL);
}

void cel_close(EditLine *editor) {
    if (editor) el_end(editor);
    if (keyboard != STDIN_FILENO) close(keyboard);
    keyboard = STDIN_FILENO;
}

void cel_set_prompt(const char *text) {
    free(prompt_text);
    prompt_text = strdup(text ? text : "");
}

void cel_set_idle(void (*idle)(EditLine *)) { idle_hook = idle; }

void cel_redisplay(EditLine *editor) { el_set(editor, EL_REFRESH); }

const char *cel_gets(EditLine *editor, int *count) {
    const char *line = el_gets(editor, count);
    if (atomic_load(&interrupted)) el_reset(editor);
    return line;
}

int cel_take_interrupt(void) {
    return atomic_exchange(&interrupted, 0);
}

void cel_set_completer(EditLine *editor, unsigned char (*complete)(EditLine *, int)) {
    el_set(editor, EL_ADDFN, "storesh-complete", "complete the word before the cursor", complete);
    el_set(editor, EL_BIND, "^I", "storesh-complete", NULL);
}

History *cel_history_open(int size) {
    History *h = history_init();
    if (!h) return NULL;
    HistEvent event;
    history(h, &event, H_SETSIZE, size);
    history(h, &event, H_SETUNIQUE, 1);
    return h;
}

void cel_history_close(History *h) {
    if (h) history_end(h);
}

void cel_history_attach(EditLine *editor, History *h) {
    el_set(editor, EL_HIST, history, h);
}

int cel_history_enter(History *h, const char *line) {
    HistEvent event;
    return history(h, &event, H_ENTER, line);
}

int cel_history_load(History *h, const char *path) {
    HistEvent event;
    return history(h, &event, H_LOAD, path);
}


int cel_history_save_whole(History *h, const char *path, const char *temporary) {
    HistEvent event;
    errno = 0;
    int saved = history(h, &event, H_SAVE, temporary);
    int written = errno;
    if (saved < 0) {
        unlink(temporary);
        errno = written ? written : EIO;
        return -1;
    }
    History *check = history_init();
    if (check == NULL) {
        unlink(temporary);
        errno = ENOMEM;
        return -1;
    }
    HistEvent checked;
    history(check, &checked, H_SETSIZE, saved > 0 ? saved : 1);
    int loaded = history(check, &checked, H_LOAD, temporary);
    /* Entry by entry: a line cut short by a full disk still counts as a line. */
    HistEvent mine;
    int left = history(h, &mine, H_FIRST), right = history(check, &checked, H_FIRST);
    while (loaded == saved && left == 0 && right == 0) {
        if (strcmp(mine.str, checked.str) != 0) loaded = -1;
        left = history(h, &mine, H_NEXT);
        right = history(check, &checked, H_NEXT);
    }
    if (left == 0 || right == 0) loaded = -1;
    history_end(check);
    int descriptor = open(temporary, O_RDONLY | O_CLOEXEC);
    int synced = descriptor >= 0 && fsync(descriptor) == 0;
    int sync_error = errno;
    if (descriptor >= 0) close(descriptor);
    if (loaded != saved || !synced) {
        unlink(temporary);
        errno = loaded != saved ? (written ? written : ENOSPC) : sync_error;
        return -1;
    }
    /* Nothing is renamed over what is not a regular file (it may have become a device or
     * a directory since the session began): -2, and errno 0. */
    struct stat existing;
    if (stat(path, &existing) == 0 && !S_ISREG(existing.st_mode)) {
        unlink(temporary);
        errno = 0;
        return -2;
    }
    if (rename(temporary, path) != 0) {
        int renamed = errno;
        unlink(temporary);
        errno = renamed;
        return -1;
    }
    return saved;
}
