DEFAULT_GROUP = "helpers-group"
