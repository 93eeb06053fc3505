from pitch.cli.main import main

main()
