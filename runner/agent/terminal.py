# Runs on the target host, alone (Python 2.7 and 3): privilege escalation that asks for its password on a
# terminal (su). Started by the agent bootstrap with this source on stdin, then one line: the password. Its
# arguments: the regular expression of the password prompt, the seconds to wait for a prompt or the command's
# first words, and the shell command to run on a new pseudo-terminal.
#
# The command's output until the prompt is held back (it is the method's own talk); the password is typed once;
# what follows goes to stdout with the terminal's CR LF line ends made plain LF. When neither a prompt nor any
# output after it comes in time, the command is ended and the exit code is TIMED_OUT, with the reason on stderr.
# The exit code is otherwise the command's.
import os
import pty
import re
import select
import signal
import sys
import time

TIMED_OUT = 125


def read_password():
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(0, 1024)
        if not chunk:
            break
        data += chunk
    return data.rstrip(b"\n")


def write_all(data):
    while data:
        data = data[os.write(1, data):]


def main():
    prompt, wait, command = re.compile(sys.argv[1].encode("utf-8"), re.IGNORECASE), float(sys.argv[2]), sys.argv[3]
    password = read_password()
    pid, fd = pty.fork()
    if pid == 0:
        os.execv("/bin/sh", ["/bin/sh", "-c", command])
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
    if not answered:
        write_all(held)  # never asked: everything it said is the command's output
    status = os.waitpid(pid, 0)[1]
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


if __name__ == "__main__":  # run by the bootstrap (python -c); never on import
    sys.exit(main())
