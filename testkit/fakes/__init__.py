"""The fakes of the chat platforms' network edge (see `testkit`)."""
