"""The benchmark's workload as a pyinfra deploy: the same operations as bench/workload.yml.

Run as ``pyinfra INVENTORY workload_pyinfra.py --data bench_dir=/tmp/bench-pyinfra``.
"""

from io import StringIO

from pyinfra import host
from pyinfra.facts.files import File, Sha1File
from pyinfra.operations import files, server

bench_dir = host.data.get("bench_dir", "/tmp/bench")
host_file = f"{bench_dir}/host.txt"

files.directory(name="Create the working directory", path=bench_dir, mode="755")

# Like copy with force: false in the playbook: write the file only when it is missing, so the line survives
if not host.get_fact(File, path=host_file):
    files.put(name="Write a file with per-host content", src=StringIO(f"host {host.name}\n"), dest=host_file,
              mode="644")

files.line(name="Add a line to that file", path=host_file, line="managed by the benchmark")

for subdirectory in ("alpha", "beta", "gamma"):
    files.directory(name="Create three subdirectories", path=f"{bench_dir}/{subdirectory}", mode="755")

server.shell(name="Run a command", commands=[f"cat {host_file}"])

# pyinfra reads file state through facts; Ansible's stat checksums the file (sha1) by default, and so does this
host.get_fact(Sha1File, path=host_file)

# Without touch=True, files.file creates the file once and leaves its times alone afterwards
files.file(name="Touch a marker file", path=f"{bench_dir}/marker")
