import sys

from table_app.cli import main

sys.exit(main())
