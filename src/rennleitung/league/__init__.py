"""League engine: seasons, the Open, FD Blitz, karma ledger, standings. Standard library only."""
