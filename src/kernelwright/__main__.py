import sys

from kernelwright.cli import main

sys.exit(main())
