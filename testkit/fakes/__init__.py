"""Local fakes of chat platforms, used only by the tests."""
