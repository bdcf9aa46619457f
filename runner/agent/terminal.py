# Runs on the target host, alone (Python 2.7 and 3): privilege escalation that asks for its password on a
# terminal (su). Started by the agent bootstrap with this source on stdin, then one line: the password. Its
# arguments: the regular expression of the password prompt, the seconds to wait for a prompt or the command's
# first words, the shell command to run on a new pseudo-terminal, (to run an agent) its success marker or else an
# empty one, and "stdin" when the rest of this process's stdin is the command's input.
#
# The command's output until the prompt is held back (it is the method's own talk); the password is typed once;
# what follows goes to stdout with the terminal's CR LF line ends made plain LF. When neither a prompt nor any
# output after it comes in time, the command is ended and the exit code is TIMED_OUT, with the reason on stderr.
# The exit code is otherwise the command's.
#
# The terminal is the command's stdin (su reads the password there), so input given for the command itself goes
# another way: with "stdin", what follows the password on this process's stdin is copied into a pipe the command
# holds as fd 3 (su keeps it open), which the command reads as its stdin with `exec 0<&3`. Through the terminal
# it would be echoed, cut into lines and taken for control characters, and it could not end without a hang-up.
#
# With a marker, the command is an agent that switches the terminal to raw mode before it prints the marker: the
# output is held back until the marker (what came before goes to stderr if it never comes), then the terminal
# and this process's stdin and stdout are relayed both ways, byte for byte, for the agent's frames.
import os
import pty
import re
import select
import signal
import sys
import time

TIMED_OUT = 125


INPUT_FD = 3


def read_password():
    """The password line, read a byte at a time: what follows it on stdin is the command's (or the agent's)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(0, 1)
        if not chunk:
            break
        data += chunk
    return data.rstrip(b"\n")


def write_all(data):
    while data:
        data = data[os.write(1, data):]


def main():
    prompt, wait, command = re.compile(sys.argv[1].encode("utf-8"), re.IGNORECASE), float(sys.argv[2]), sys.argv[3]
    marker = sys.argv[4].encode("utf-8") + b"\n" if len(sys.argv) > 4 and sys.argv[4] else None
    feeds_input = len(sys.argv) > 5 and sys.argv[5] == "stdin"
    password = read_password()
    pipe = os.pipe() if feeds_input else None
    pid, fd = pty.fork()
    if pid == 0:
        if pipe is not None:
            hand_over_input(pipe)
        os.execv("/bin/sh", ["/bin/sh", "-c", command])
    copier = copy_input(pipe, fd) if pipe is not None else None
    try:
        return run(pid, fd, prompt, wait, marker, password)
    finally:
        if copier is not None:
            stop(copier)


def hand_over_input(pipe):
    """In the terminal's child: the pipe's read end as fd 3, inherited by su and the command."""
    read_end, write_end = pipe
    if read_end != INPUT_FD:
        os.dup2(read_end, INPUT_FD)
        os.close(read_end)
    if write_end != INPUT_FD:
        os.close(write_end)
    if hasattr(os, "set_inheritable"):  # Python 3's descriptors are not inherited unless asked
        os.set_inheritable(INPUT_FD, True)


def copy_input(pipe, terminal):
    """A process that copies the rest of stdin into the pipe and closes it (the command's end of input); it ends
    early when the command stops reading. Returns its pid."""
    read_end, write_end = pipe
    os.close(read_end)
    copier = os.fork()
    if copier == 0:
        os.close(terminal)
        try:
            while True:
                data = os.read(0, 65536)
                if not data:
                    break
                while data:
                    data = data[os.write(write_end, data):]
        except OSError:  # EPIPE: the command has closed its input
            pass
        os._exit(0)
    os.close(write_end)
    return copier


def stop(copier):
    try:
        os.kill(copier, signal.SIGKILL)  # the command has ended: input it never read goes nowhere
    except OSError:
        pass
    os.waitpid(copier, 0)


def run(pid, fd, prompt, wait, marker, password):
    """Answer the prompt on terminal ``fd`` of process ``pid``, pass on what the command says; its exit code."""
    held, answered, running, deadline = b"", False, False, time.time() + wait
    while True:
        ready = select.select([fd], [], [], None if running else max(0.0, deadline - time.time()))[0]
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            sys.stderr.write("Timed out waiting for become success or become password prompt (waiting for "
                             "privilege escalation prompt): %s\n" % held.decode("utf-8", "replace").strip())
            return TIMED_OUT
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the command and everything holding the terminal ended
            chunk = b""
        if not chunk:
            break
        if marker is not None:
            held += chunk
            if marker in held:
                return relay(pid, fd, held[held.index(marker):])
            if not answered and prompt.match(held.split(b"\n")[-1].lstrip()):
                os.write(fd, password + b"\n")
                answered, held = True, b""
                deadline = time.time() + wait
            continue
        chunk = chunk.replace(b"\r\n", b"\n")
        if answered:
            running = True  # the command runs now: it takes the time it takes
            write_all(chunk)
            continue
        held += chunk
        last_line = held.split(b"\n")[-1].lstrip()
        if prompt.match(last_line):
            os.write(fd, password + b"\n")
            answered, held = True, b""
            deadline = time.time() + wait
    if marker is not None:
        sys.stderr.write(held.replace(b"\r\n", b"\n").decode("utf-8", "replace"))  # why it never started
    elif not answered:
        write_all(held)  # never asked: everything it said is the command's output
    return exit_status(pid)


def exit_status(pid):
    status = os.waitpid(pid, 0)[1]
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


def relay(pid, fd, first):
    """The agent runs: its output (from the marker on) to stdout, stdin to it, until either side ends. The end
    of stdin closes the terminal, which hangs the agent up."""
    write_all(first)
    while True:
        ready = select.select([0, fd], [], [])[0]
        if 0 in ready:
            data = os.read(0, 65536)
            if not data:
                break
            while data:
                data = data[os.write(fd, data):]
        if fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                break
            write_all(data)
    os.close(fd)
    return exit_status(pid)


if __name__ == "__main__":  # run by the bootstrap (python -c); never on import
    sys.exit(main())
