"""One module per ``python -m plugin`` command: ``add_arguments(parser)`` and ``run(args)``."""
