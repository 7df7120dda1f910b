from carcassonne.cli import main

raise SystemExit(main())
