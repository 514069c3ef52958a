"""The project's own documentation (docs/): the rules page is current, the record page's examples replay."""
