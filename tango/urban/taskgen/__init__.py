"""Task sets for every rung of the ladder, written in UrbanGround's task JSON format, with reference routes."""
