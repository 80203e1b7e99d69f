"""The table's configuration: the TOML file with every key known and checked (``file``) and its
``[fee]`` keys (``fee``)."""
