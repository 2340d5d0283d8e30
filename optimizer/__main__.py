from autoresearch.optimizer.cli import main

main()
