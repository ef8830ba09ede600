"""The Bible: the 66-book canon and its versification, USFX parsing, and Portuguese references. May import
pastor.text."""
