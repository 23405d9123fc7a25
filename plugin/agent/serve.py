"""``python -m plugin.agent.serve ARGS``: ``python -m llama_cpp.server ARGS`` made safe on this CPU.

llama-cpp-python's server loads the model in-process with the default "extra buffer types",
which segfault on AMX CPUs at the first multi-token prompt (the server dies silently and
clients see a dropped connection / HTTP 500). This wrapper applies the worker's fix before the
server loads the model, and otherwise takes exactly the server's arguments, e.g.::

    python -m plugin.agent.serve --model PATH.gguf --host 127.0.0.1 --port 8000 --n_threads 1
"""
from __future__ import annotations

from .worker import without_extra_buffers


def main() -> None:
    without_extra_buffers()
    from llama_cpp.server.__main__ import main as server_main  # needs the llama-cpp-python[server] extras

    server_main()


if __name__ == "__main__":
    main()
