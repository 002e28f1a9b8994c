"""Speed measurements, each side by side with a peer library in the same run (`make bench`)."""
