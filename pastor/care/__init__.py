"""Care: where a message goes before any search (crisis, conversation, advice, the ordinary flow) and the replies
and help lines of each."""
