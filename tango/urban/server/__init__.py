"""The offline stand-in for the UrbanGround app: the same HTTP API over the procedural district."""
