"""What visitors ask and what fails: the questions log, feedback, insights and content gaps."""
