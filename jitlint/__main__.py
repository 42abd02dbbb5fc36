import sys

from jitlint.cli import main

sys.exit(main())
