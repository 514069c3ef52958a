from sandbox.cli import main

main()
