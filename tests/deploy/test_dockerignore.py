#!/usr/bin/env python3
"""test_dockerignore.py: what enters the Docker build context of deploy/Dockerfile (issue 13 item 1).

The context is the repository root. Debian's docker-compose 1.29 builds with the classic
builder: its Python library (docker-py) reads .dockerignore at the root of the context and
makes the context tarball itself. This test makes that very tarball, with docker-py's own
code, from a copy of the tree (git's file list, or every file) with stray files added: a
key file at the root and in a folder, a journal, an allow-list, build folders and a .git.
None of them may be in the tarball; every file of the copied tree (the sources the image
build needs) must be. It also checks that no deploy/Dockerfile.dockerignore exists: BuildKit
would prefer it to .dockerignore, and the two builders would disagree.
No daemon needed. Skips (77) without docker-py (Debian's python3-docker, a dependency of
docker-compose).

usage: test_dockerignore.py REPO_ROOT
"""
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

STRAYS = ["stray.key", "tests/worker-a.key", "deploy/coordinator.key", "perft-octad-9.journal",
          "data/perft-chess-7.journal", "workers.allow", "build/CMakeCache.txt", "build-asan/bin/worker",
          "tests/build/x.o", ".git/config", "core/.git/HEAD", "notes.txt~"]


def import_docker_py():
    """Imports docker-py, re-running this script with docker-compose's interpreter if need be."""
    try:
        import docker.utils.build  # noqa: F401
        return
    except ImportError:
        pass
    compose = shutil.which("docker-compose")
    if compose and not os.environ.get("OCTAD_DOCKERIGNORE_REEXEC"):
        with open(compose, "rb") as f:
            first = f.readline().decode("utf-8", "replace").strip()
        if first.startswith("#!"):
            interp = first[2:].split()[0]
            if os.path.exists(interp) and os.path.realpath(interp) != os.path.realpath(sys.executable):
                os.environ["OCTAD_DOCKERIGNORE_REEXEC"] = "1"
                os.execv(interp, [interp] + sys.argv)
    print("test_dockerignore: SKIP: no docker-py (Debian's python3-docker, installed with docker-compose)")
    sys.exit(77)


def source_files(root):
    """The tree as git sees it (tracked and untracked, minus .gitignore'd), else every file."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "-z"],
                             capture_output=True, check=True).stdout
        return [p for p in out.decode().split("\0") if p and os.path.isfile(os.path.join(root, p))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return files


def context_members(ctx):
    """The files docker-py puts in the build context of ctx, as docker-compose 1.29 calls it."""
    import docker.utils.build as build
    exclude = None
    ignore = os.path.join(ctx, ".dockerignore")
    if os.path.exists(ignore):  # read as docker/api/build.py does
        with open(ignore) as f:
            exclude = [line for line in (raw.strip() for raw in f.read().splitlines()) if line and line[0] != "#"]
    with build.tar(ctx, exclude=exclude, dockerfile=("deploy/Dockerfile", None)) as fileobj:
        with tarfile.open(fileobj=fileobj) as tar:
            return {m.name for m in tar.getmembers() if m.isfile()}


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = os.path.abspath(sys.argv[1])
    import_docker_py()
    files = source_files(root)
    fails = 0

    def check(ok, what):
        nonlocal fails
        print(("ok: " if ok else "FAIL: ") + what)
        fails += not ok

    check(".dockerignore" in files, ".dockerignore is at the root of the build context")
    check(not os.path.exists(os.path.join(root, "deploy", "Dockerfile.dockerignore")),
          "there is no deploy/Dockerfile.dockerignore (BuildKit would read it instead)")
    with tempfile.TemporaryDirectory() as ctx:
        for p in files:
            os.makedirs(os.path.dirname(os.path.join(ctx, p)), exist_ok=True)
            shutil.copy2(os.path.join(root, p), os.path.join(ctx, p))
        for p in STRAYS:
            os.makedirs(os.path.dirname(os.path.join(ctx, p)) or ctx, exist_ok=True)
            with open(os.path.join(ctx, p), "w") as f:
                f.write("stray: must not reach an image\n")
        members = context_members(ctx)
    leaked = sorted(p for p in STRAYS if p in members)
    check(not leaked, f"no stray file in the context ({len(STRAYS)} planted)" + (f": leaked {leaked}" if leaked else ""))
    missing = sorted(p for p in files if p not in members)
    check(not missing, f"all {len(files)} source files are in the context" + (f": missing {missing[:10]}" if missing else ""))
    check("deploy/Dockerfile" in members and "CMakeLists.txt" in members, "the Dockerfile and CMakeLists.txt are in")
    print(f"{5 - fails} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
