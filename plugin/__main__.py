import sys

from plugin.cli import main

sys.exit(main())
