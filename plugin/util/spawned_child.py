"""Child side of ``plugin.util.spawned``: run one pickled call in a fresh interpreter.

Started through ``launch_child.py`` (``start_worker``), which gives it the parent's
``sys.path``; it imports nothing from the plugin. Protocol on stdin/stdout (pickles, binary):
  parent → {"preload": [module, ...]}
  child  → ("ready", None) once the modules are imported (the parent starts the call's clock
           here), or ("error", message)
  parent → (fn, args)
  child  → ("ok", result) or ("error", "Type: message"), then exits.
The parent keeps stdin open until it has the answer: EOF on stdin means the parent is gone,
and the child exits. On Linux the kernel also kills the child when its parent dies
(PR_SET_PDEATHSIG), which holds even while a C extension keeps the GIL.
"""
import os
import pickle
import sys
import threading


def die_with_parent(parent_pid: int) -> None:
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:   # the parent died before the line above took effect
        os._exit(1)


def exit_on_eof(stream) -> None:
    stream.read()   # blocks until the parent closes the pipe or dies
    os._exit(1)


def main() -> None:
    die_with_parent(int(sys.argv[1]))
    # Results go to a private copy of stdout; fd 1 then points at stderr so that anything a
    # library prints (HiGHS writes from C) cannot corrupt the pickle stream.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    inp = sys.stdin.buffer
    try:
        setup = pickle.load(inp)
        for name in setup["preload"]:
            __import__(name)
    except BaseException as e:
        send(out, ("error", f"worker setup failed: {type(e).__name__}: {e}"))
        os._exit(1)
    send(out, ("ready", None))
    try:
        fn, args = pickle.load(inp)
        threading.Thread(target=exit_on_eof, args=(inp,), daemon=True).start()
        answer = ("ok", fn(*args))
    except BaseException as e:  # report, never raise: the parent decides
        answer = ("error", f"{type(e).__name__}: {e}")
    send(out, answer)
    os._exit(0)


def send(out, answer: tuple) -> None:
    try:
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:
        data = pickle.dumps(("error", f"unpicklable result: {type(e).__name__}: {e}"))
    out.write(data)
    out.flush()


if __name__ == "__main__":
    main()
